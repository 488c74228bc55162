// smov: a mov whose src1 immediate is a channel-enable mask, as IGC writes a vISA
// mov predicated on one channel into a per-channel indirect destination (the
// skl/icllp private_insertion_sort corpus kernel: `smov (16|M0) r[a0.1]<1>:d
// r62.1<0;1,0>:d 0x2:uw`). Channel k writes at a0.k + 4k; the other channels not at
// all (0x300 names no channel of a SIMD8 instruction). SIMD8, r1 holds the local ids.
//! r22:d = 0 0 5 0 0 0 3 0
//! r23:d = 0 0 0 0 0 0 7 0
(W)     mov (8|M0)               r10.0<1>:d    r1.0<8;8,1>:uw
(W)     mov (8|M0)               r22.0<1>:d    0x0:d
(W)     mov (8|M0)               r23.0<1>:d    0x0:d
(W)     mov (8|M0)               a0.0<1>:uw    {r22.0}:uw
        smov (8|M0)              r[a0.2]<1>:d  r10.5<0;1,0>:d    0x4:uw
        smov (8|M0)              r[a0.6]<1>:d  r10.3<0;1,0>:d    0x40:uw
        smov (8|M0)              r[a0.0]<1>:d  r10.1<0;1,0>:d    0x300:uw
(W)     mov (8|M0)               a0.0<1>:uw    0x76543210:uv
(W)     shl (8|M0)               a0.0<1>:uw    a0.0<8;8,1>:uw    2:w
(W)     add (8|M0)               a0.0<1>:uw    a0.0<8;8,1>:uw    {r23.0}:uw
        smov (8|M0)              r[a0.3]<1>:d  r10.7<0;1,0>:d    0x8:uw
(W)     mov (8|M0)               r112.0<1>:ud  r0.0<8;8,1>:ud
(W)     send.ts (8|M0)           null     r112    null    0x0            0x02000010           {EOT}
