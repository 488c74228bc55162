//.kernel uninit_local
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enableStructurizer -noScalarJmp -enablePreemption -noLoadPayload -hasRNEandDenorm -noStitchExternFunc -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 54 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -waClearHDCWrite -noMaskWA -insertRSDummyMov "
//.instCount 38
//.RA type	TRIVIAL_RA


// .inputs


// B000: Preds:{},  Succs:{B001, B002}
_main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {@1}          // $1
        cmp (16|M0)   (eq)f0.0   null<1>:w     r1.0<16;16,1>:w   3:w               {@1}              // $4
        cmp (16|M16)  (eq)f0.0   null<1>:w     r2.0<16;16,1>:w   3:w                                 // $5
        mov (16|M0)              r4.0<1>:d     r1.0<16;16,1>:uw                                      // $2
        mov (16|M16)             r9.0<1>:d     r2.0<16;16,1>:uw                                      // $3
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w         // $6
(~f0.0) if (32|M0)                           _uninit_local_k0_0_cf  _uninit_local_k0_0_cf            // $6
// B001: [inDivergent],  Preds:{B000},  Succs:{B002}
_0_005:
        shl (16|M0)              r11.0<1>:d    r4.0<8;8,1>:d     2:w               {Compacted,@4}    // $8
        shl (16|M16)             r13.0<1>:d    r9.0<8;8,1>:d     2:w               {Compacted,@4}    // $9
        send.dc1 (16|M0)         null     r11     r4      0x80            0x04025EFE           {@2,$0} // wr:2+2, rd:0; untyped surface write with x // $10
        send.dc1 (16|M16)        null     r13     r9      0x80            0x04025EFE           {@1,$1} // wr:2+2, rd:0; untyped surface write with x // $11
// B002: Preds:{B001, B000},  Succs:{B003}
_uninit_local_k0_0_cf:
        endif (32|M0)                        _0_004                                                  // $6
// B003: Preds:{B002},  Succs:{}
_0_004:
(W)     send.dc0 (8|M0)          r6       r3      null    0x0            0x0219E0FE           {@7,$2} // wr:1h+0, rd:1; synchronized SLM fence // $13
(W)     and (8|M0)               r15.0<1>:ud   r3.2<0;1,0>:ud    0x7F000000:ud                       // $14
(W)     mov (8|M0)               null<1>:ud    r6.0<8;8,1>:ud                   {$2.dst}             //  memory fence commit; $14
(W)     send.gtwy (1|M0)         null     r15     null    0x0            0x02000004           {@2,$3} // wr:1+0, rd:0; signal barrier // $14
(W)     sync.bar                             null                                                    // $14
(W)     mul (1|M0)               acc0.0<1>:d   r8.2<0;1,0>:d     r3.2<0;1,0>:uw                      // $19
        shl (16|M0)              r16.0<1>:d    r4.0<8;8,1>:d     2:w               {Compacted}       // $15
        shl (16|M16)             r18.0<1>:d    r9.0<8;8,1>:d     2:w               {Compacted}       // $16
(W)     mach (1|M0)              r8.0<1>:d     r8.2<0;1,0>:d     r3.1<0;1,0>:d                       // $20
        send.dc1 (16|M0)         r20      r16     null    0x0            0x04205EFE           {@3,$4} // wr:2+0, rd:2; untyped surface read with x // $17
        add (16|M0)              r24.0<1>:d    r8.0<0;1,0>:d     r4.0<8;8,1>:d    {Compacted,@1}     // $20
        add (16|M16)             r26.0<1>:d    r8.0<0;1,0>:d     r9.0<8;8,1>:d    {Compacted}        // $21
        send.dc1 (16|M16)        r22      r18     null    0x0            0x04205EFE           {@4,$5} // wr:2+0, rd:2; untyped surface read with x // $18
        add (16|M0)              r24.0<1>:d    r24.0<8;8,1>:d    r7.0<0;1,0>:d    {Compacted,@2}     // $22
        add (16|M16)             r26.0<1>:d    r26.0<8;8,1>:d    r7.0<0;1,0>:d    {Compacted,@2}     // $23
        shl (16|M0)              r24.0<1>:d    r24.0<8;8,1>:d    2:w               {Compacted,@2}    // $24
        shl (16|M16)             r26.0<1>:d    r26.0<8;8,1>:d    2:w               {Compacted,@2}    // $25
        send.dc1 (16|M0)         null     r24     r20     0x80            0x04025E00           {@2,$4} // wr:2+2, rd:0; untyped surface write with x // $27
        send.dc1 (16|M16)        null     r26     r22     0x80            0x04025E00           {@1,$5} // wr:2+2, rd:0; untyped surface write with x // $29
(W)     mov (8|M0)               r127.0<1>:f   r3.0<8;8,1>:f                    {Compacted}          // $30
(W)     send.dc0 (8|M0)          r28      r3      null    0x0            0x0219E000           {$6} // wr:1h+0, rd:1; synchronized global fence flushing // $30
(W)     mov (8|M0)               null<1>:ud    r28.0<8;8,1>:ud                  {$6.dst}             //  memory fence commit; $30
(W)     send.dc0 (8|M0)          r29      r3      null    0x0            0x0219E0FE           {$7} // wr:1h+0, rd:1; synchronized SLM fence // $30
(W)     mov (8|M0)               null<1>:ud    r29.0<8;8,1>:ud                  {$7.dst}             //  memory fence commit; $30
(W)     send.ts (8|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread // $30


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 50
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
