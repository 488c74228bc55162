// Predication, flag subregisters, .anyN/.allN, conditional modifiers and sel.
//! r11:d = 1 1 1 0 0 0 0 0
//! r12:d = 0 0 0 1 1 1 1 1
//! r13:d = 0 1 2 100 100 100 100 100
//! r14:d = 4 4 4 4 4 5 6 7
//! r15:d = 0 0 0 0 1 1 1 1
//! r16:d = 1 1 0 0 0 0 0 0
//! r17:uw = 7 240 224
//! r18:d = 0 0 0 0 1 1 1 1
//! r19:d = -4 -3 -2 -1 0 1 2 3
(W)     mov (8|M0)               r10.0<1>:d    r1.0<8;8,1>:uw
(W)     cmp (8|M0)    (lt)f0.0   null<1>:d     r10.0<8;8,1>:d    3:w
(W)     mov (8|M0)               r11.0<1>:d    0x0:d
(W&f0.0) mov (8|M0)              r11.0<1>:d    0x1:d
(W&~f0.0) mov (8|M0)             r12.0<1>:d    0x1:d
(W&f0.0) sel (8|M0)              r13.0<1>:d    r10.0<8;8,1>:d    0x64:d
(W)     sel (8|M0)    (ge)f0.0   r14.0<1>:d    r10.0<8;8,1>:d    0x4:d
(W)     mov (1|M0)               f1.0<1>:uw    0x0:uw
(W)     cmp (8|M0)    (eq)f1.0   null<1>:d     r10.0<8;8,1>:d    0x5:d
(W&f1.0.any4h) mov (8|M0)        r15.0<1>:d    0x1:d
(W&f0.0.all2h) mov (8|M0)        r16.0<1>:d    0x1:d
(W)     mov (1|M0)               r17.0<1>:uw   f0.0<0;1,0>:uw
(W)     mov (1|M0)               f0.1<1>:uw    0xF0:uw
(W&f0.1) mov (8|M0)              r18.0<1>:d    0x1:d
(W)     mov (1|M0)               r17.1<1>:uw   f0.1<0;1,0>:uw
        add (8|M0)    (gt)f1.1   r19.0<1>:d    r10.0<8;8,1>:d    -4:w
(W)     mov (1|M0)               r17.2<1>:uw   f1.1<0;1,0>:uw
(W)     mov (8|M0)               r112.0<1>:ud  r0.0<8;8,1>:ud
(W)     send.ts (8|M0)           null     r112    null    0x0            0x02000010           {EOT}
