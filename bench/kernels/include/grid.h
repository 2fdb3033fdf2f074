// 2D grid helpers shared by stencil kernels.
#ifndef GRID_H
#define GRID_H
typedef struct {
  int width;
  int height;
} grid_t;

inline int grid_index(grid_t g, int x, int y) { return y * g.width + x; }
inline bool grid_interior(grid_t g, int x, int y) {
  return x > 0 && y > 0 && x < g.width - 1 && y < g.height - 1;
}
#endif
