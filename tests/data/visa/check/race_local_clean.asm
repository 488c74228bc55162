//.kernel race_local_clean
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enableStructurizer -noScalarJmp -enablePreemption -noLoadPayload -hasRNEandDenorm -noStitchExternFunc -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 54 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -waClearHDCWrite -noMaskWA -insertRSDummyMov "
//.instCount 41
//.RA type	TRIVIAL_RA


// .inputs


// B000: Preds:{},  Succs:{}
_main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {@1}          // $1
        mov (16|M0)              r4.0<1>:d     r1.0<16;16,1>:uw                 {@1}                 // $2
        mov (16|M16)             r10.0<1>:d    r2.0<16;16,1>:uw                                      // $3
        shl (16|M0)              r12.0<1>:d    r4.0<8;8,1>:d     2:w               {Compacted,@2}    // $4
        shl (16|M16)             r14.0<1>:d    r10.0<8;8,1>:d    2:w               {Compacted,@2}    // $5
        send.dc1 (16|M0)         null     r12     r4      0x80            0x04025EFE           {@2,$0} // wr:2+2, rd:0; untyped surface write with x // $6
        send.dc1 (16|M16)        null     r14     r10     0x80            0x04025EFE           {@1,$1} // wr:2+2, rd:0; untyped surface write with x // $7
(W)     send.dc0 (8|M0)          r6       r3      null    0x0            0x0219E0FE           {@6,$2} // wr:1h+0, rd:1; synchronized SLM fence // $8
(W)     and (8|M0)               r16.0<1>:ud   r3.2<0;1,0>:ud    0x7F000000:ud                       // $9
(W)     mov (8|M0)               null<1>:ud    r6.0<8;8,1>:ud                   {$2.dst}             //  memory fence commit; $9
(W)     send.gtwy (1|M0)         null     r16     null    0x0            0x02000004           {@2,$3} // wr:1+0, rd:0; signal barrier // $9
(W)     sync.bar                             null                                                    // $9
        add (16|M0)              r17.0<1>:d    r4.0<8;8,1>:d     1:w               {Compacted}       // $10
        add (16|M16)             r19.0<1>:d    r10.0<8;8,1>:d    1:w               {Compacted}       // $11
        math.irem (8|M0)         r17.0<1>:ud   r17.0<8;8,1>:ud   r8.4<0;1,0>:ud   {@2,$4}            // $29
        math.irem (8|M8)         r18.0<1>:ud   r18.0<8;8,1>:ud   r8.4<0;1,0>:ud   {$5}               // $12
(W)     mul (1|M0)               acc0.0<1>:d   r9.0<0;1,0>:d     r3.2<0;1,0>:uw   {Compacted}        // $18
        math.irem (8|M16)        r19.0<1>:ud   r19.0<8;8,1>:ud   r8.4<0;1,0>:ud   {@2,$6}            // $29
        sync.nop                             null                             {Compacted,$5.dst}     // $14
        shl (16|M0)              r17.0<1>:d    r17.0<8;8,1>:d    2:w               {Compacted,$4.dst} // $14
        math.irem (8|M24)        r20.0<1>:ud   r20.0<8;8,1>:ud   r8.4<0;1,0>:ud   {$7}               // $13
(W)     mach (1|M0)              r8.0<1>:d     r9.0<0;1,0>:d     r3.1<0;1,0>:d    {Compacted}        // $19
        sync.nop                             null                             {Compacted,$7.dst}     // $15
        shl (16|M16)             r19.0<1>:d    r19.0<8;8,1>:d    2:w               {Compacted,$6.dst} // $15
        add (16|M0)              r25.0<1>:d    r8.0<0;1,0>:d     r4.0<8;8,1>:d    {Compacted,@2}     // $19
        add (16|M16)             r27.0<1>:d    r8.0<0;1,0>:d     r10.0<8;8,1>:d   {Compacted}        // $20
        send.dc1 (16|M0)         r21      r17     null    0x0            0x04205EFE           {@5,$8} // wr:2+0, rd:2; untyped surface read with x // $16
        send.dc1 (16|M16)        r23      r19     null    0x0            0x04205EFE           {@3,$9} // wr:2+0, rd:2; untyped surface read with x // $17
        add (16|M0)              r25.0<1>:d    r25.0<8;8,1>:d    r7.0<0;1,0>:d    {Compacted,@2}     // $21
        add (16|M16)             r27.0<1>:d    r27.0<8;8,1>:d    r7.0<0;1,0>:d    {Compacted,@2}     // $22
        shl (16|M0)              r25.0<1>:d    r25.0<8;8,1>:d    2:w               {Compacted,@2}    // $23
        shl (16|M16)             r27.0<1>:d    r27.0<8;8,1>:d    2:w               {Compacted,@2}    // $24
        send.dc1 (16|M0)         null     r25     r21     0x80            0x04025E00           {@2,$8} // wr:2+2, rd:0; untyped surface write with x // $26
        send.dc1 (16|M16)        null     r27     r23     0x80            0x04025E00           {@1,$9} // wr:2+2, rd:0; untyped surface write with x // $28
(W)     mov (8|M0)               r127.0<1>:f   r3.0<8;8,1>:f                    {Compacted}          // $29
(W)     send.dc0 (8|M0)          r29      r3      null    0x0            0x0219E000           {$10} // wr:1h+0, rd:1; synchronized global fence flushing // $29
(W)     mov (8|M0)               null<1>:ud    r29.0<8;8,1>:ud                  {$10.dst}            //  memory fence commit; $29
(W)     send.dc0 (8|M0)          r30      r3      null    0x0            0x0219E0FE           {$11} // wr:1h+0, rd:1; synchronized SLM fence // $29
(W)     mov (8|M0)               null<1>:ud    r30.0<8;8,1>:ud                  {$11.dst}            //  memory fence commit; $29
(W)     send.ts (8|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread // $29


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 55
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
