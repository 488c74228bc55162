//.kernel sgemm_tile
//.platform TGLLP
//.vISA version 3.6
//.full_options "-TotalGRFNum 128 -output -binary"
//.instCount 6
//.RA type	GRAPH_COLORING_SPILL_FF_BC_RA
//.spill size 256

//.declare V0033 (43)  rf=r size=32 type=d align=16 words (r3.0)

// B0
(W)     mov (8|M0)   r127.0<1>:ud  r0.0<8;8,1>:ud            // $1
        add (16|M0)  r4.0<1>:f  r6.0<8;8,1>:f  r8.0<8;8,1>:f   // $2
L64:
(W)     send.dc0 (16|M0)  null  r12  null  0x0  0x020B0000  {$1} // scratch write; $3
(W)     send.dc0 (16|M0)  r14  r13  null  0x0  0x02190000  {$2} // scratch read; $4
        sendc.dc1 (16|M0) null r20 null 0x0 0x0 // $5
(W)     send.gateway (1|M0) null r127 null 0x0 0x02000010 {EOT} // $6
