//.kernel race_global
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enableStructurizer -noScalarJmp -enablePreemption -noLoadPayload -hasRNEandDenorm -noStitchExternFunc -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 54 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -waClearHDCWrite -noMaskWA -insertRSDummyMov "
//.instCount 23
//.RA type	TRIVIAL_RA


// .inputs


// B000: Preds:{},  Succs:{B001, B002}
_main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {@1}          // $1
(W)     mul (1|M0)               acc0.0<1>:d   r8.2<0;1,0>:d     r3.2<0;1,0>:uw   {@1}               // $2
(W)     mach (1|M0)              r4.0<1>:d     r8.2<0;1,0>:d     r3.1<0;1,0>:d                       // $5
        add (16|M0)              r5.0<1>:d     r4.0<0;1,0>:d     r1.0<16;16,1>:uw {@1}               // $5
        add (16|M16)             r9.0<1>:d     r4.0<0;1,0>:d     r2.0<16;16,1>:uw                    // $6
        add (16|M0)   (gt)f0.0   r11.0<1>:d    r5.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}     // $7
        add (16|M16)  (gt)f0.0   r13.0<1>:d    r9.0<8;8,1>:d     r7.0<0;1,0>:d    {@2}               // $8
(W)     csel (4|M0)   (eq)f0.0   r0.0<1>:w     r0.0<4;1>:w       r0.0<4;1>:w       r0.0<1>:w         // $11
(f0.0)  if (32|M0)                           _race_global_k0_0_cf  _race_global_k0_0_cf              // $11
// B001: [inDivergent],  Preds:{B000},  Succs:{B002}
_0_005:
        shl (16|M0)              r15.0<1>:d    r11.0<8;8,1>:d    2:w               {Compacted,@4}    // $13
        shl (16|M16)             r17.0<1>:d    r13.0<8;8,1>:d    2:w               {Compacted,@4}    // $14
        add (16|M0)              r19.0<1>:d    r15.0<8;8,1>:d    -4:w               {Compacted,@2}   // $15
        add (16|M16)             r21.0<1>:d    r17.0<8;8,1>:d    -4:w               {Compacted,@2}   // $16
        send.dc1 (16|M0)         r23      r19     null    0x0            0x04205E00           {@2,$0} // wr:2+0, rd:2; untyped surface read with x // $18
        send.dc1 (16|M16)        r25      r21     null    0x0            0x04205E00           {@1,$1} // wr:2+0, rd:2; untyped surface read with x // $20
        send.dc1 (16|M0)         null     r15     r23     0x80            0x04025E00           {$0} // wr:2+2, rd:0; untyped surface write with x // $22
        send.dc1 (16|M16)        null     r17     r25     0x80            0x04025E00           {$1} // wr:2+2, rd:0; untyped surface write with x // $24
// B002: Preds:{B001, B000},  Succs:{B003}
_race_global_k0_0_cf:
        endif (32|M0)                        _0_004                                                  // $11
// B003: Preds:{B002},  Succs:{}
_0_004:
(W)     mov (8|M0)               r127.0<1>:f   r3.0<8;8,1>:f                    {Compacted}          // $26
(W)     send.dc0 (8|M0)          r27      r3      null    0x0            0x0219E000           {$2} // wr:1h+0, rd:1; synchronized global fence flushing // $26
(W)     mov (8|M0)               null<1>:ud    r27.0<8;8,1>:ud                  {$2.dst}             //  memory fence commit; $26
(W)     send.ts (8|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread // $26


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 31
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
