//.kernel copy_gid
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.declare implBufPtr (31)  rf=r size=8 type=uq align=4 words (r126.0)
//.declare localIdBufPtr (32)  rf=r size=8 type=uq align=4 words (r126.3)
//.declare V0033 (41)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//.declare V0034 (42)  rf=r size=4 type=d align=2 words (r8.2)
//.declare V0036 (44)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//.declare V0037 (45)  rf=r size=32 type=d align=16 words (r7.0)
//.declare V0038 (46)  rf=r size=12 type=d align=2 words (r8.3)
//.declare V0039 (47)  rf=r size=32 type=w align=16 words (r1.0)
//.declare V0040 (48)  rf=r size=32 type=w align=16 words (r2.0)
//.declare V0041 (49)  rf=r size=32 type=w align=16 words (r3.0)
//.declare V0042 (50)  rf=r size=32 type=w align=16 words (r4.0)
//.declare V0043 (51)  rf=r size=32 type=w align=16 words (r5.0)
//.declare V0044 (52)  rf=r size=32 type=w align=16 words (r6.0)
//.declare V0046 (54)  rf=r size=4 type=d align=16 words (r4.0)
//.declare V0047 (55)  rf=r size=64 type=d align=16 words (r5.0)
//.declare V0048 (56)  rf=r size=64 type=d align=16 words (r9.0)
//.declare V0049 (57)  rf=r size=32 type=uw alias=V0039+0 align=16 words (r1.0)
//.declare V0050 (58)  rf=r size=32 type=uw alias=V0040+0 align=16 words (r2.0)
//.declare V0051 (59)  rf=r size=64 type=d align=16 words (r11.0)
//.declare V0052 (60)  rf=r size=64 type=d align=16 words (r13.0)
//.declare V0053 (61)  rf=r size=64 type=ud alias=V0047+0 align=16 words (r5.0)
//.declare V0054 (62)  rf=r size=64 type=ud alias=V0048+0 align=16 words (r9.0)
//.declare V0055 (63)  rf=r size=8 type=uq align=4 words (r8.0)
// B000: Preds:{},  Succs:{}
_main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {@1}          // $1
(W)     mul (1|M0)               acc0.0<1>:d   r8.3<0;1,0>:d     r3.2<0;1,0>:uw   {@1}               // $2
(W)     mach (1|M0)              r4.0<1>:d     r8.3<0;1,0>:d     r3.1<0;1,0>:d                       // $5
(W)     mov (8|M0)               r127.0<1>:f   r3.0<8;8,1>:f                    {Compacted}          // $17
        add (16|M0)              r5.0<1>:d     r4.0<0;1,0>:d     r1.0<16;16,1>:uw {@2}               // $5
        add (16|M16)             r9.0<1>:d     r4.0<0;1,0>:d     r2.0<16;16,1>:uw                    // $6
        add (16|M0)              r5.0<1>:d     r5.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}     // $7
        add (16|M16)             r9.0<1>:d     r9.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}     // $8
        add (16|M0)              r11.0<1>:d    r5.0<8;8,1>:d     r8.2<0;1,0>:d    {Compacted,@2}     // $9
        add (16|M16)             r13.0<1>:d    r9.0<8;8,1>:d     r8.2<0;1,0>:d    {Compacted,@2}     // $10
        shl (16|M0)              r5.0<1>:d     r5.0<8;8,1>:d     2:w               {Compacted}       // $11
        shl (16|M16)             r9.0<1>:d     r9.0<8;8,1>:d     2:w               {Compacted}       // $12
        send.dc1 (16|M0)         null     r5      r11     0x80            0x04025E00           {@2,$0} // wr:2+2, rd:0; untyped surface write with x // $14
        send.dc1 (16|M16)        null     r9      r13     0x80            0x04025E00           {@1,$1} // wr:2+2, rd:0; untyped surface write with x // $16
(W)     send.dc0 (8|M0)          r15      r3      null    0x0            0x0219E000           {$2} // wr:1h+0, rd:1; synchronized global fence flushing // $17
(W)     mov (8|M0)               null<1>:ud    r15.0<8;8,1>:ud                  {$2.dst}             //  memory fence commit; $17
(W)     send.ts (8|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread // $17
//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 26
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
