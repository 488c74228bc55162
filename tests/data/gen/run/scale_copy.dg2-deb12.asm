//.kernel scale_copy
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enablePreemption -hasRNEandDenorm -noStitchExternFunc -useInlineData -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 22 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -LSCBackupMode -waClearHDCWrite -cloneEvaluateSampleInst -insertRSDummyMov "
//.instCount 41
//.RA type	TRIVIAL_RA


// .inputs


// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                                                // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw                             // 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x40:uw              {I@2}          // 
(W)     mad (1|M0)               r127.2<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1} // 
(W)     mov (8|M0)               r7.0<1>:ud    r1.0<1;1,0>:ud                                        // 
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8 // $23
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x80:uw              {$0.src}       // 
(W)     send.dc0 (8|M0)          r5       r127    null:0  0x0            0x022843FD           {A@1,$1} // wr:1h+0, rd:2; oword aligned block read x4 // $23
        nop                                                                                          // 
        nop                                                                                          // 
        nop                                                                                          // 
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                              {$1.src}          // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     send.dc0 (8|M0)          r8       r127    null:0  0x0            0x022843FD           {A@1,$2} // wr:1h+0, rd:2; oword aligned block read x4 // $23
// B002: Preds:{B001},  Succs:{}
// _main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                   {$0.dst}             // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {A@1}         // $1
        sync.nop                             null                             {Compacted,A@1}        // $2
        sync.nop                             null                             {Compacted,$2.dst}     // $2
(W)     mul (1|M0)               acc0.0<1>:d   r9.0<0;1,0>:d     r3.2<0;1,0>:uw   {Compacted,A@1}    // $2
(W)     mach (1|M0)              r4.0<1>:d     r9.0<0;1,0>:d     r3.1<0;1,0>:d    {Compacted}        // $5
(W)     mov (8|M0)               r127.0<1>:f   r3.0<1;1,0>:f                    {Compacted}          // $23
        sync.nop                             null                             {Compacted,$1.dst}     // $5
        add3 (16|M0)             r5.0<1>:d     r4.0<0;0>:d       r1.0<1;0>:uw      r7.0<0>:d        {I@1} // $5
        add3 (16|M16)            r10.0<1>:d    r4.0<0;0>:d       r2.0<1;0>:uw      r7.0<0>:d         // $6
        shl (16|M0)              r5.0<1>:d     r5.0<1;1,0>:d     2:w               {Compacted,I@2}   // $7
        shl (16|M16)             r10.0<1>:d    r10.0<1;1,0>:d    2:w               {Compacted,I@2}   // $8
        add (16|M0)              r12.0<1>:d    r5.0<1;1,0>:d     r8.5<0;1,0>:d    {Compacted,I@2}    // $9
        add (16|M16)             r14.0<1>:d    r10.0<1;1,0>:d    r8.5<0;1,0>:d    {Compacted,I@2}    // $10
        send.dc1 (16|M0)         r16      r12     null:0  0x0            0x04205E00           {A@2,$3} // wr:2+0, rd:2; untyped surface read with x // $12
        send.dc1 (16|M16)        r18      r14     null:0  0x0            0x04205E00           {A@1,$4} // wr:2+0, rd:2; untyped surface read with x // $14
        add (16|M0)              r5.0<1>:d     r5.0<1;1,0>:d     r8.6<0;1,0>:d    {Compacted}        // $17
        add (16|M16)             r10.0<1>:d    r10.0<1;1,0>:d    r8.6<0;1,0>:d    {Compacted}        // $18
        mul (16|M0)              r16.0<1>:f    r16.0<1;1,0>:f    r8.4<0;1,0>:f    {Compacted,$3.dst} // $15
        mul (16|M16)             r18.0<1>:f    r18.0<1;1,0>:f    r8.4<0;1,0>:f    {Compacted,$4.dst} // $16
        send.dc1 (16|M0)         null     r5      r16:2   0x0            0x04025E01           {A@2,$5} // wr:2+2, rd:0; untyped surface write with x // $20
        send.dc1 (16|M16)        null     r10     r18:2   0x0            0x04025E01           {A@1,$6} // wr:2+2, rd:0; untyped surface write with x // $22
(W)     send.ugm (1|M0)          r20      r3      null:0  0x0            0x0214031F           {$7} // wr:1+0, rd:1; fence.ugm.none.local // $23
(W)     mov (8|M0)               null<1>:ud    r20.0<1;1,0>:ud                  {$7.dst}             //  memory fence commit; $23
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $23
L528:
        nop                                                                                          // $23


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 51
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
