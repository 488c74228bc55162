// 256-bin byte histogram: each work-group counts into local memory with atomics,
// then adds its bins to the global histogram with global atomics.
__kernel void histogram_slm(__global const uchar *data, uint n, __global uint *hist) {
    __local uint bins[256];
    uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint i = lid; i < 256; i += lsize)
        bins[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < 256; i += lsize)
        atomic_add(&hist[i], bins[i]);
}
