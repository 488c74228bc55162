//.kernel copy_gid
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.instCount 6

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0)

// B000: Preds:{},  Succs:{}
// _main:
_main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                                        // $1
        add (16|M0)              r5.0<1>:d     r4.0<0;1,0>:d     r1.0<16;16,1>:uw {@2}               // $5
        load.ugm.d32.a32.ca.ca (16|M0)  r11:2   bti[2][r5:2]       {A@1,$4} // ex_desc:0x2000000; desc:0x64280500 // $6
        store.ugm.d32.a32.wb.wb (16|M0)  bti[1][r5:2] r11:2        {$5} // ex_desc:0x1000000; desc:0x640E0504 // $8
(W)     send.slm (1|M0)          r7       r2      null:0  0x0            0x0210011F           {$4} // wr:1+0, rd:1; fence.slm.none.group // $9
(W)     mov (8|M0)               null<1>:ud    r7.0<8;8,1>:ud                   {$4.dst}             //  memory fence commit; $9
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread // $10
