// Reference definitions of cl_intel_subgroup_matrix_multiply_accumulate's builtins for
// sub-groups of 16 (the devices whose minimum sub-group size is 16, such as PVC), written
// from the extension's description, for an OpenCL implementation that has sub-groups but
// not the extension (Intel's CPU runtime run with CL_CONFIG_CPU_VECTORIZER_MODE=16).
// tools/visa_run_oracle.py puts this file before the source of a kernel that calls them.
//
// result[r][n] = acc[r][n] + sum over k of A[r][k] * B[k][n], with N = 16 columns:
//  - work item n holds column n of B, K elements packed into the 256 bits of its int8;
//  - row r of A is component r of `a`: each work item holds 16 bits of it, work item w
//    the elements 16 / bits * w onwards (two 8-bit, or one 16-bit element);
//  - work item n holds column n of acc and of the result, one component per row.
// Float products are exact in double; each depth's pair of products is added to the
// float sum with one rounding, as vISA's dpas describes its float form (temp.F += dot2).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define GPUKIT_MMA_SG 16

// A's 16 bits of row r that work item w holds.
static inline uint gpukit_mma_a_bits(ushort a_row, uint w)
{
    return (ushort)sub_group_broadcast((uint)a_row, w);
}

static inline uint gpukit_mma_b_dword(int8 b, uint i)
{
    int words[8] = {b.s0, b.s1, b.s2, b.s3, b.s4, b.s5, b.s6, b.s7};
    return (uint)words[i];
}

// 8-bit elements: K = 32, element k of row r in work item k / 2 (byte k % 2); column n's
// element k in dword k / 4 (byte k % 4) of b.
#define GPUKIT_MMA_ROW_K32(NAME, A_SIGNED, B_SIGNED)                                         \
    static inline int NAME(ushort a_row, int8 b, int acc)                                    \
    {                                                                                        \
        int sum = acc;                                                                       \
        for (uint k = 0; k < 32; ++k) {                                                      \
            uint a8 = (gpukit_mma_a_bits(a_row, k / 2) >> (8 * (k % 2))) & 0xFF;             \
            uint b8 = (gpukit_mma_b_dword(b, k / 4) >> (8 * (k % 4))) & 0xFF;                \
            int av = A_SIGNED ? (int)(char)a8 : (int)a8;                                     \
            int bv = B_SIGNED ? (int)(char)b8 : (int)b8;                                     \
            sum += av * bv;                                                                  \
        }                                                                                    \
        return sum;                                                                          \
    }
GPUKIT_MMA_ROW_K32(gpukit_mma_row_i8_i8, 1, 1)
GPUKIT_MMA_ROW_K32(gpukit_mma_row_i8_u8, 1, 0)
GPUKIT_MMA_ROW_K32(gpukit_mma_row_u8_i8, 0, 1)
GPUKIT_MMA_ROW_K32(gpukit_mma_row_u8_u8, 0, 0)

static inline double gpukit_mma_bf16(uint bits)
{
    return (double)as_float((bits & 0xFFFF) << 16);
}
static inline double gpukit_mma_f16(uint bits)
{
    ushort h = (ushort)bits;
    return (double)vload_half(0, (const __private half *)&h);
}

// 16-bit elements: K = 16, element k of row r in work item k; column n's element k in
// half k % 2 of dword k / 2 of b.
#define GPUKIT_MMA_ROW_K16(NAME, DECODE)                                                     \
    static inline float NAME(ushort a_row, int8 b, float acc)                                \
    {                                                                                        \
        float sum = acc;                                                                     \
        for (uint d = 0; d < 8; ++d) {                                                       \
            uint bw = gpukit_mma_b_dword(b, d);                                              \
            double dot = DECODE(gpukit_mma_a_bits(a_row, 2 * d)) * DECODE(bw)                \
                       + DECODE(gpukit_mma_a_bits(a_row, 2 * d + 1)) * DECODE(bw >> 16);     \
            sum = (float)((double)sum + dot);                                                \
        }                                                                                    \
        return sum;                                                                          \
    }
GPUKIT_MMA_ROW_K16(gpukit_mma_row_bf16, gpukit_mma_bf16)
GPUKIT_MMA_ROW_K16(gpukit_mma_row_f16, gpukit_mma_f16)

// The builtins, for M = 1, 2, 4 and 8 rows.
#define GPUKIT_MMA_1(FN, ROW, AT, BT, CT)                                                    \
    CT __attribute__((overloadable)) FN(AT a, BT b, CT acc) { return ROW(a, as_int8(b), acc); }
#define GPUKIT_MMA_2(FN, ROW, AT, BT, CT)                                                    \
    CT##2 __attribute__((overloadable)) FN(AT##2 a, BT b, CT##2 acc)                         \
    {                                                                                        \
        return (CT##2)(ROW(a.s0, as_int8(b), acc.s0), ROW(a.s1, as_int8(b), acc.s1));        \
    }
#define GPUKIT_MMA_4(FN, ROW, AT, BT, CT)                                                    \
    CT##4 __attribute__((overloadable)) FN(AT##4 a, BT b, CT##4 acc)                         \
    {                                                                                        \
        return (CT##4)(FN(a.s01, b, acc.s01), FN(a.s23, b, acc.s23));                        \
    }
#define GPUKIT_MMA_8(FN, ROW, AT, BT, CT)                                                    \
    CT##8 __attribute__((overloadable)) FN(AT##8 a, BT b, CT##8 acc)                         \
    {                                                                                        \
        return (CT##8)(FN(a.s0123, b, acc.s0123), FN(a.s4567, b, acc.s4567));                \
    }
#define GPUKIT_MMA_ALL(FN, ROW, AT, BT, CT)                                                  \
    GPUKIT_MMA_1(FN, ROW, AT, BT, CT)                                                        \
    GPUKIT_MMA_2(FN, ROW, AT, BT, CT)                                                        \
    GPUKIT_MMA_4(FN, ROW, AT, BT, CT)                                                        \
    GPUKIT_MMA_8(FN, ROW, AT, BT, CT)

GPUKIT_MMA_ALL(intel_sub_group_i8_i8_matrix_mad_k32, gpukit_mma_row_i8_i8, short, int8, int)
GPUKIT_MMA_ALL(intel_sub_group_i8_u8_matrix_mad_k32, gpukit_mma_row_i8_u8, short, uint8, int)
GPUKIT_MMA_ALL(intel_sub_group_u8_i8_matrix_mad_k32, gpukit_mma_row_u8_i8, ushort, int8, int)
GPUKIT_MMA_ALL(intel_sub_group_u8_u8_matrix_mad_k32, gpukit_mma_row_u8_u8, ushort, uint8, int)
GPUKIT_MMA_ALL(intel_sub_group_bf16_bf16_matrix_mad_k16, gpukit_mma_row_bf16, short, int8, float)
GPUKIT_MMA_ALL(intel_sub_group_f16_f16_matrix_mad_k16, gpukit_mma_row_f16, short, int8, float)
