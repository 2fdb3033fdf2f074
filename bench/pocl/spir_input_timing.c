// PoCL timing of one kernel from SPIR bitcode variants (bench/pocl/spir_input.sh), interleaved:
// 9 rounds of 3 launches of each variant in turn; min and median per launch.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static unsigned char* readf(const char* p, size_t* n) { FILE* f = fopen(p, "rb"); fseek(f, 0, SEEK_END); *n = ftell(f); rewind(f); unsigned char* b = malloc(*n); fread(b, 1, *n, f); fclose(f); return b; }
#define CK(x) do { cl_int e_ = (x); if (e_) { printf("%s: %d (line %d)\n", #x, e_, __LINE__); exit(1);} } while (0)
static double now() { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static cl_context c; static cl_device_id d; static cl_command_queue q;
static cl_kernel load(const char* path, const char* name) {
  cl_int e; size_t n; unsigned char* b = readf(path, &n); const unsigned char* bins[1] = {b};
  cl_program prog = clCreateProgramWithBinary(c, 1, &d, &n, bins, NULL, &e); CK(e);
  e = clBuildProgram(prog, 1, &d, "-x spir -spir-std=1.2", NULL, NULL);
  if (e) { char log[10000]; clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); printf("build %d: %s\n", e, log); exit(1); }
  cl_kernel k = clCreateKernel(prog, name, &e); CK(e); return k;
}
static int cmp(const void* a, const void* b) { double x = *(double*)a, y = *(double*)b; return x < y ? -1 : x > y; }
int main(int argc, char** argv) {
  // usage: timing WHICH file1.bc [file2.bc ...]
  cl_platform_id p; cl_int e;
  CK(clGetPlatformIDs(1, &p, NULL)); CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  c = clCreateContext(NULL, 1, &d, NULL, NULL, &e); q = clCreateCommandQueue(c, d, 0, &e);
  const char* which = argv[1]; int files = argc - 2;
  int N = 1024; size_t bytes = (size_t)N * N * 4;
  float* h = malloc(bytes); for (int i = 0; i < N * N; ++i) h[i] = (i % 97) * 0.01f;
  cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e), b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e), cc = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e);
  cl_kernel k[8]; size_t G[2], L[2]; int dims = 2;
  for (int f = 0; f < files; ++f) {
    cl_kernel kk;
    if (!strcmp(which, "stencil2d")) {
      kk = load(argv[2 + f], "stencil2d"); L[0] = 16; L[1] = 16; G[0] = N; G[1] = N;
      CK(clSetKernelArg(kk, 0, sizeof a, &a)); CK(clSetKernelArg(kk, 1, sizeof b, &b));
      CK(clSetKernelArg(kk, 2, 18 * 18 * 4, NULL)); CK(clSetKernelArg(kk, 3, 16 * 16 * 4, NULL));
      CK(clSetKernelArg(kk, 4, 4, &N)); CK(clSetKernelArg(kk, 5, 4, &N));
    } else if (!strcmp(which, "sgemm")) {
      kk = load(argv[2 + f], "sgemm_tiled"); int M = 512; L[0] = 32; L[1] = 8; G[0] = M; G[1] = M / 4;
      float alpha = 1, beta = 0;
      CK(clSetKernelArg(kk, 0, 4, &M)); CK(clSetKernelArg(kk, 1, 4, &M)); CK(clSetKernelArg(kk, 2, 4, &M)); CK(clSetKernelArg(kk, 3, 4, &alpha));
      CK(clSetKernelArg(kk, 4, sizeof a, &a)); CK(clSetKernelArg(kk, 5, sizeof b, &b)); CK(clSetKernelArg(kk, 6, 4, &beta)); CK(clSetKernelArg(kk, 7, sizeof cc, &cc));
    } else if (!strcmp(which, "jacobi")) {
      kk = load(argv[2 + f], "jacobi_step"); L[0] = 16; L[1] = 16; G[0] = N; G[1] = N;
      int g[2] = {N, N};
      CK(clSetKernelArg(kk, 0, 8, g)); CK(clSetKernelArg(kk, 1, sizeof a, &a)); CK(clSetKernelArg(kk, 2, sizeof b, &b));
      CK(clSetKernelArg(kk, 3, sizeof cc, &cc)); CK(clSetKernelArg(kk, 4, 256 * 4, NULL));
    } else {  // saxpy
      kk = load(argv[2 + f], "saxpy"); dims = 1; G[0] = (size_t)N * N; L[0] = 256; float al = 2; unsigned n = N * N;
      CK(clSetKernelArg(kk, 0, 4, &al)); CK(clSetKernelArg(kk, 1, sizeof a, &a)); CK(clSetKernelArg(kk, 2, sizeof b, &b)); CK(clSetKernelArg(kk, 3, 4, &n));
    }
    k[f] = kk;
    CK(clEnqueueNDRangeKernel(q, kk, dims, NULL, G, L, 0, NULL, NULL)); clFinish(q);  // warm up (compiles)
  }
  enum { R = 9 }; double t[8][R];
  for (int r = 0; r < R; ++r)
    for (int f = 0; f < files; ++f) {
      double s = now();
      for (int i = 0; i < 3; ++i) CK(clEnqueueNDRangeKernel(q, k[f], dims, NULL, G, L, 0, NULL, NULL));
      clFinish(q); t[f][r] = (now() - s) / 3 * 1e3;
    }
  for (int f = 0; f < files; ++f) { qsort(t[f], R, sizeof(double), cmp); printf("%s %s: min %.2f ms median %.2f ms\n", which, argv[2 + f], t[f][0], t[f][R / 2]); }
  return 0;
}
