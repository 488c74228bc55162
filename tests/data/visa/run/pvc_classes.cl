// Xe-HPC (PVC) classes of issue 25, one kernel each: IEEE fp64 division and square
// root (vISA divm, sqrtm), the systolic matrix multiply-accumulate (dpas), private
// memory on the thread's scratch surface (lsc ss(r0.5 >> 4)), and a private array
// in registers indexed through `&var[byte offset]` counted in 64-byte GRFs.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

int8 __attribute__((overloadable)) intel_sub_group_i8_i8_matrix_mad_k32(short8 a, int8 b, int8 acc);
float8 __attribute__((overloadable)) intel_sub_group_bf16_bf16_matrix_mad_k16(short8 a, int8 b, float8 acc);

__kernel void fp64_div_sqrt(__global double *out, __global const double *a, __global const double *b)
{
    int i = get_global_id(0);
    out[2 * i] = a[i] / b[i];
    out[2 * i + 1] = sqrt(a[i]);
}

__kernel __attribute__((intel_reqd_sub_group_size(16)))
void mma(__global const short8 *a, __global const int8 *b, __global int8 *ci, __global float8 *cf)
{
    size_t g = get_global_id(0);
    ci[g] = intel_sub_group_i8_i8_matrix_mad_k32(a[g], b[g], ci[g]);
    cf[g] = intel_sub_group_bf16_bf16_matrix_mad_k16(a[g], b[g], cf[g]);
}

__kernel __attribute__((intel_reqd_sub_group_size(16)))
void private_scratch(__global const uint *in, __global uint *out)
{
    uint w[64];
    size_t g = get_global_id(0);
    #pragma nounroll
    for (int i = 0; i < 64; ++i)
        w[i] = in[g] * (uint)(i + 1);
    uint s = 0;
    #pragma nounroll
    for (int i = 0; i < 64; ++i)
        s = s * 31u + w[(in[g] + 7 * i) & 63];
    out[g] = s;
}

__kernel void private_sort(__global const int *in, __global int *out)
{
    int buf[8];
    size_t g = get_global_id(0);
    for (int i = 0; i < 8; ++i)
        buf[i] = in[g * 8 + i];
    #pragma nounroll
    for (int i = 1; i < 8; ++i) {
        int key = buf[i];
        int j = i - 1;
        while (j >= 0 && buf[j] > key) {
            buf[j + 1] = buf[j];
            --j;
        }
        buf[j + 1] = key;
    }
    for (int i = 0; i < 8; ++i)
        out[g * 8 + i] = buf[i];
}
