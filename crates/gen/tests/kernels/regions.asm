// Regions, destination strides, packed vectors, saturation, indirect operands and
// execution offsets. SIMD8, r1 holds the local ids 0..7.
//! r10:d = 0 1 2 3 4 5 6 7
//! r11:d = 2 2 2 2 2 2 2 2
//! r12:d = 0 1 4 5
//! r13:d = 0 0 1 0 2 0 3 0
//! r14:w = 0 1 2 3 4 5 6 7
//! r15:d = -2 -1 0 1 2 3 4 5
//! r16:ub = 0 0 0 1 2 3 4 5
//! r17:d = 1 1 1 1 1 1 1 1
//! r18:d = 3 4 5 6
//! r19:d = 0 1 2 3
//! r20:d = 0 1 2 3 4 5 6 7
//! r21:uw = 1 1 1 1 15 15 15 15
(W)     mov (8|M0)               r10.0<1>:d    r1.0<8;8,1>:uw
(W)     mov (8|M0)               r11.0<1>:d    r10.2<0;1,0>:d
(W)     mov (4|M0)               r12.0<1>:d    r10.0<4;2,1>:d
(W)     mov (4|M0)               r13.0<2>:d    r10.0<1;1,0>:d
(W)     mov (8|M0)               r14.0<1>:w    0x76543210:v
(W)     add (8|M0)               r15.0<1>:d    r10.0<8;8,1>:d    -r11.0<8;8,1>:d
(W)     mov (8|M0)               (sat)r16.0<1>:ub  r15.0<8;8,1>:d
(W)     mov (1|M0)               a0.0<1>:uw    {r10.1}:uw
(W)     mov (8|M0)               r17.0<1>:d    r[a0.0]<0;1,0>:d
(W)     mov (4|M0)               r18.0<1>:d    r[a0.0,8]<1;1,0>:d
        mov (4|M4)               r19.0<1>:d    r10.0<1;1,0>:d
(W)     mov (8|M0)               a0.0<1>:uw    0x76543210:uv
(W)     shl (8|M0)               a0.0<1>:uw    a0.0<8;8,1>:uw    2:w
(W)     add (8|M0)               a0.0<1>:uw    a0.0<8;8,1>:uw    {r10.0}:uw
(W)     mov (8|M0)               r20.0<1>:d    r[a0.0]<1,0>:d
(W)     mov (4|M0)               r21.0<1>:uw   0x1:uw
(W)     mov (4|M4)               r21.4<1>:uw   0xF:uw
(W)     mov (8|M0)               r112.0<1>:ud  r0.0<8;8,1>:ud
(W)     send.ts (8|M0)           null     r112    null    0x0            0x02000010           {EOT}
