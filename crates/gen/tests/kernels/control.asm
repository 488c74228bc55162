// SIMD control flow with divergent channels: if/else/endif, a while loop left by
// break at a different iteration per channel, goto/join, call/ret, jmpi.
//! r11:d = 10 10 10 10 11 11 11 11
//! r12:d = 0 2 4 6 8 10 12 14
//! r14:d = 8 8 7 8 8 8 8 8
//! r15:d = 1 4 7 10 13 16 19 22
//! r16:d = 0 0 0 0 0 0 0 0
//! r17:d = 5 5 5 5 5 5 5 5
(W)     mov (8|M0)               r10.0<1>:d    r1.0<8;8,1>:uw
        mov (8|M0)               r11.0<1>:d    0x0:d
        cmp (8|M0)    (lt)f0.0   null<1>:d     r10.0<8;8,1>:d    4:w
(f0.0)  if (8|M0)                            L_else            L_endif
        mov (8|M0)               r11.0<1>:d    0xA:d
        else (8|M0)                          L_endif           L_endif
L_else:
        mov (8|M0)               r11.0<1>:d    0xB:d
L_endif:
        endif (8|M0)                         L_next
L_next:
        mov (8|M0)               r12.0<1>:d    0x0:d
        mov (8|M0)               r13.0<1>:d    0x0:d
L_loop:
        cmp (8|M0)    (ge)f0.1   null<1>:d     r13.0<8;8,1>:d    r10.0<8;8,1>:d
(f0.1)  break (8|M0)                         L_while           L_while
        add (8|M0)               r12.0<1>:d    r12.0<8;8,1>:d    0x2:d
        add (8|M0)               r13.0<1>:d    r13.0<8;8,1>:d    0x1:d
L_while:
        while (8|M0)                         L_loop
        cmp (8|M0)    (eq)f1.0   null<1>:d     r10.0<8;8,1>:d    0x2:d
        mov (8|M0)               r14.0<1>:d    0x7:d
(f1.0)  goto (8|M0)                          L_join            L_join
        mov (8|M0)               r14.0<1>:d    0x8:d
L_join:
        join (8|M0)                          L_after
L_after:
        call (8|M0)              r6.0          L_sub
        add (8|M0)               r15.0<1>:d    r15.0<8;8,1>:d    0x1:d
(W)     jmpi                                 L_end
        mov (8|M0)               r16.0<1>:d    0x63:d
L_sub:
        mul (8|M0)               r15.0<1>:d    r10.0<8;8,1>:d    3:w
        ret (8|M0)                           r6.0
L_end:
(W)     mov (8|M0)               r17.0<1>:d    0x5:d
(W)     mov (8|M0)               r112.0<1>:ud  r0.0<8;8,1>:ud
(W)     send.ts (8|M0)           null     r112    null    0x0            0x02000010           {EOT}
