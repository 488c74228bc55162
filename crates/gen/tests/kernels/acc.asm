// Accumulators: addc's carry and AccWrEn, mul into acc0 then mach (the high dword
// with AccWrEn; without it, IGA's spelling of macl before XeHPC: the low dword),
// acc0 as an explicit destination and source.
//! r12:ud = 0 0 0 0 1 1 1 1
//! r14:d = 0 0 0 0 1 1 1 1
//! r15:d = 0 2 4 6 8 10 12 14
//! r16:d = 0 1073741824 -2147483648 -1073741824 0 1073741824 -2147483648 -1073741824
(W)     mov (8|M0)               r10.0<1>:ud   r1.0<8;8,1>:uw
(W)     addc (8|M0)              r11.0<1>:ud   r10.0<8;8,1>:ud   0xFFFFFFFC:ud    {AccWrEn}
(W)     mov (8|M0)               r12.0<1>:ud   acc0.0<8;8,1>:ud
(W)     mov (8|M0)               r13.0<1>:d    0x40000000:d
(W)     mul (8|M0)               acc0.0<1>:d   r13.0<8;8,1>:d    r10.0<16;8,2>:uw
(W)     mach (8|M0)              r14.0<1>:d    r13.0<8;8,1>:d    r10.0<8;8,1>:d   {AccWrEn}
(W)     mul (8|M0)               acc0.0<1>:d   r13.0<8;8,1>:d    r10.0<16;8,2>:uw
(W)     mach (8|M0)              r16.0<1>:d    r13.0<8;8,1>:d    r10.0<8;8,1>:d
(W)     add (8|M0)               acc0.0<1>:d   r10.0<8;8,1>:d    r10.0<8;8,1>:d
(W)     mov (8|M0)               r15.0<1>:d    acc0.0<8;8,1>:d
(W)     mov (8|M0)               r112.0<1>:ud  r0.0<8;8,1>:ud
(W)     send.ts (8|M0)           null     r112    null    0x0            0x02000010           {EOT}
