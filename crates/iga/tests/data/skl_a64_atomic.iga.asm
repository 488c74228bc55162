L0:
        send (8|M0)              null     r11:uq  0xC            0x040485FF           // wr:2+0, rd:0; hdc.dc1; untyped a64 atomic int32 integer increment
        send (8|M0)              r39      r27:uq  0xC            0x0414A5FF           // wr:2+0, rd:1; hdc.dc1; untyped a64 atomic int32 integer increment
        sends (16|M0)            null:w   r43     r35     0x8C            0x080691FF           // wr:4+2, rd:0; hdc.dc1; a64 dword scattering write
(W)     send (8|M0)              null     r127    0x27            0x02000010           {EOT} // wr:1+0, rd:0; spawner; end of thread
