//.kernel race_global_clean
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enableStructurizer -noScalarJmp -enablePreemption -noLoadPayload -hasRNEandDenorm -noStitchExternFunc -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 54 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -waClearHDCWrite -noMaskWA -insertRSDummyMov "
//.instCount 22
//.RA type	TRIVIAL_RA


// .inputs


// B000: Preds:{},  Succs:{}
_main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {@1}          // $1
(W)     mul (1|M0)               acc0.0<1>:d   r8.3<0;1,0>:d     r3.2<0;1,0>:uw   {@1}               // $2
(W)     mach (1|M0)              r4.0<1>:d     r8.3<0;1,0>:d     r3.1<0;1,0>:d                       // $5
(W)     mov (8|M0)               r127.0<1>:f   r3.0<8;8,1>:f                    {Compacted}          // $23
        add (16|M0)              r5.0<1>:d     r4.0<0;1,0>:d     r1.0<16;16,1>:uw {@2}               // $5
        add (16|M16)             r9.0<1>:d     r4.0<0;1,0>:d     r2.0<16;16,1>:uw                    // $6
        add (16|M0)              r5.0<1>:d     r5.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}     // $7
        add (16|M16)             r9.0<1>:d     r9.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}     // $8
        shl (16|M0)              r5.0<1>:d     r5.0<8;8,1>:d     2:w               {Compacted,@2}    // $9
        shl (16|M16)             r9.0<1>:d     r9.0<8;8,1>:d     2:w               {Compacted,@2}    // $10
        add (16|M0)              r5.0<1>:d     r5.0<8;8,1>:d     r8.2<0;1,0>:d    {Compacted,@2}     // $11
        add (16|M16)             r9.0<1>:d     r9.0<8;8,1>:d     r8.2<0;1,0>:d    {Compacted,@2}     // $12
        send.dc1 (16|M0)         r11      r5      null    0x0            0x04205E00           {@2,$0} // wr:2+0, rd:2; untyped surface read with x // $14
        send.dc1 (16|M16)        r13      r9      null    0x0            0x04205E00           {@1,$1} // wr:2+0, rd:2; untyped surface read with x // $16
        add (16|M0)              r11.0<1>:d    r11.0<8;8,1>:d    1:w               {Compacted,$0.dst} // $17
        add (16|M16)             r13.0<1>:d    r13.0<8;8,1>:d    1:w               {Compacted,$1.dst} // $18
        send.dc1 (16|M0)         null     r5      r11     0x80            0x04025E00           {@2,$2} // wr:2+2, rd:0; untyped surface write with x // $20
        send.dc1 (16|M16)        null     r9      r13     0x80            0x04025E00           {@1,$3} // wr:2+2, rd:0; untyped surface write with x // $22
(W)     send.dc0 (8|M0)          r15      r3      null    0x0            0x0219E000           {$4} // wr:1h+0, rd:1; synchronized global fence flushing // $23
(W)     mov (8|M0)               null<1>:ud    r15.0<8;8,1>:ud                  {$4.dst}             //  memory fence commit; $23
(W)     send.ts (8|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread // $23


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 32
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
