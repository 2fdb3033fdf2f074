// Correctness on PoCL (bench/pocl/spir_input.sh): a kernel of one program (fill, argv[1]),
// then stencil2d of a second program (argv[2]) launched argv[3] times over four work-group
// shapes, each result checked against the host; prints the first differences and the count.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
static unsigned char* readf(const char* p, size_t* n) { FILE* f = fopen(p, "rb"); fseek(f, 0, SEEK_END); *n = ftell(f); rewind(f); unsigned char* b = malloc(*n); fread(b, 1, *n, f); fclose(f); return b; }
#define CK(x) do { cl_int e_ = (x); if (e_) { printf("%s: %d\n", #x, e_); exit(1);} } while (0)
static cl_program build(cl_context c, cl_device_id d, const char* path) {
  cl_int e; size_t n; unsigned char* b = readf(path, &n); const unsigned char* bins[1] = {b};
  cl_program prog = clCreateProgramWithBinary(c, 1, &d, &n, bins, NULL, &e); CK(e);
  e = clBuildProgram(prog, 1, &d, "-x spir -spir-std=1.2", NULL, NULL);
  if (e) { char log[10000]; clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); printf("build %d: %s\n", e, log); exit(1); }
  return prog;
}
int main(int argc, char** argv) {
  cl_platform_id p; cl_device_id d; cl_int e;
  CK(clGetPlatformIDs(1, &p, NULL)); CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  int W = 256, H = 128, rounds = atoi(argv[3]), bad = 0;
  cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, W * H * 4, NULL, &e), b = clCreateBuffer(c, CL_MEM_READ_WRITE, W * H * 4, NULL, &e);
  cl_program first = build(c, d, argv[1]);
  cl_kernel fill = clCreateKernel(first, "fill", &e); CK(e);
  size_t G = W * H; float v = 1.0f;
  CK(clSetKernelArg(fill, 0, sizeof a, &a)); CK(clSetKernelArg(fill, 1, 4, &v));
  CK(clEnqueueNDRangeKernel(q, fill, 1, NULL, &G, NULL, 0, NULL, NULL)); clFinish(q);
  cl_program second = build(c, d, argv[2]);
  cl_kernel st = clCreateKernel(second, "stencil2d", &e); CK(e);
  float* in = malloc(W*H*4); CK(clEnqueueReadBuffer(q, a, 1, 0, W*H*4, in, 0, NULL, NULL));
  float* out = malloc(W*H*4);
  size_t locals[][2] = {{16, 16}, {32, 8}, {8, 8}, {16, 4}};
  for (int r = 0; r < rounds; ++r) {
    size_t* L = locals[r % 4]; size_t G2[2] = {W, H};
    CK(clSetKernelArg(st, 0, sizeof a, &a)); CK(clSetKernelArg(st, 1, sizeof b, &b));
    CK(clSetKernelArg(st, 2, (L[0] + 2) * (L[1] + 2) * 4, NULL)); CK(clSetKernelArg(st, 3, L[0] * L[1] * 4, NULL));
    CK(clSetKernelArg(st, 4, 4, &W)); CK(clSetKernelArg(st, 5, 4, &H));
    CK(clEnqueueNDRangeKernel(q, st, 2, NULL, G2, L, 0, NULL, NULL));
    CK(clEnqueueReadBuffer(q, b, 1, 0, W * H * 4, out, 0, NULL, NULL));
    for (int y = 0; y < H; ++y) for (int x = 0; x < W; ++x) {
      #define IN(xx, yy) (((xx) >= 0 && (xx) < W && (yy) >= 0 && (yy) < H) ? in[(yy) * W + (xx)] : 0.0f)
      float want = 0.2f * (IN(x, y) + IN(x, y - 1) + IN(x, y + 1) + IN(x - 1, y) + IN(x + 1, y));
      if (fabsf(out[y * W + x] - want) > 1e-2f * fabsf(want) + 1e-3f) { if (bad < 5) printf("round %d (%zux%zu): out[%d,%d] = %g, want %g\n", r, L[0], L[1], x, y, out[y*W+x], want); ++bad; }
    }
  }
  printf("%d wrong\n", bad);
  return bad != 0;
}
