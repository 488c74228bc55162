L0:
(W)     mov (8|M0)               r25.0<1>:uq   r4.0<4;4,1>:uq
        send (8|M0)              null     r25:uq  0xC            0x040A87FF           // wr:2+0, rd:0; hdc.dc1; untyped a64 atomic int32 integer add
        sends (8|M0)             null:ud  r28     r20     0x8C            0x040497FF           // wr:2+2, rd:0; hdc.dc1; untyped a64 atomic int64 integer add
        send (8|M0)              r105:f   r47:uq  0xC            0x041401FF           // wr:2+0, rd:1; hdc.dc1; a64 dword gathering read
(W)     send (8|M0)              null     r127    0x27           0x02000010           {EOT} // wr:1+0, rd:0; spawner; end of thread
