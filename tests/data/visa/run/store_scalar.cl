// No work-item functions: the kernel has no local IDs, so its per-thread payload is
// the one unused GRF the dispatch loads anyway (gpukit visa run test fixture).
kernel void store_scalar(global uint *out, uint value) { out[0] = value + 1; }
