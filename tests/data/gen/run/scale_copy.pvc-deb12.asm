//.kernel scale_copy
//.platform PVCXT
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -hasRNEandDenorm -noStitchExternFunc -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -preserver0 -TotalGRFNum 128 -abortOnSpill 4 -boundsChecking -presched-ctrl 6 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -enableHalfLSC -hasInt64Add -partialInt64 "
//.instCount 27
//.RA type	TRIVIAL_RA


// .inputs


// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (16|M0)              r127.0<1>:ud  0x0:ud                                                // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw                             // 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x40:uw              {I@2}          // 
(W)     mad (1|M0)               r127.0<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1} // 
        load.ugm.d32x32t.a32.ca.ca (1|M0)  r1:2 bti[255][r127:1]   {A@1,$0} // ex_desc:0xFF000000; desc:0x6228E500 // $12
(W)     add (1|M0)               r127.0<1>:ud  r127.0<0;1,0>:ud  0x80:uw              {$0.src}       // 
        load.ugm.d32x16t.a32.ca.ca (1|M0)  r3:1 bti[255][r127:1]   {A@1,$1} // ex_desc:0xFF000000; desc:0x6218D500 // $12
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     and (1|M0)               r127.0<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud              {$1.src} // 
        load.ugm.d32x16t.a32.ca.ca (1|M0)  r4:1 bti[255][r127:1]   {I@1,$2} // ex_desc:0xFF000000; desc:0x6218D500 // $12
// B002: Preds:{B001},  Succs:{}
// _main:
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {Compacted,A@1} // $1
(W)     mul (1|M0)               acc0.0<1>:d   r4.13<0;1,0>:d    r0.2<0;1,0>:uw   {A@1,$2.dst}       // $2
(W)     macl (1|M0)              r2.0<1>:d     r4.13<0;1,0>:d    r0.1<0;1,0>:d    {$0.dst}           // $4
(W)     mov (16|M0)              r127.0<1>:ud  r0.0<1;1,0>:ud                   {Compacted}          // $12
        add3 (32|M0)             r5.0<1>:d     r2.0<0;0>:d       r1.0<1;0>:uw      r4.0<0>:d        {I@2} // $4
        mov (16|M0)              r19.0<2>:ud   r5.0<1;1,0>:ud                   {Compacted,I@1}      // $6
        mov (16|M16)             r21.0<2>:ud   r6.0<1;1,0>:ud                   {Compacted}          // $6
        shl (16|M0)              r23.0<1>:q    r19.0<2;1,0>:d    2:w               {Compacted,I@2}   // $6
        shl (16|M16)             r25.0<1>:q    r21.0<2;1,0>:d    2:w               {Compacted,I@2}   // $6
        add (16|M0)              r7.0<1>:q     r23.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted,I@2}    // $7
        add (16|M16)             r9.0<1>:q     r25.0<1;1,0>:q    r4.4<0;1,0>:q    {Compacted,I@2}    // $7
        load.ugm.d32.a64 (32|M0)  r11:2         [r7:4]             {A@1,$3} // ex_desc:0x0; desc:0x8200580 // $8
        add (16|M0)              r15.0<1>:q    r23.0<1;1,0>:q    r4.5<0;1,0>:q    {Compacted}        // $10
        add (16|M16)             r17.0<1>:q    r25.0<1;1,0>:q    r4.5<0;1,0>:q    {Compacted}        // $10
        mul (32|M0)              r13.0<1>:f    r11.0<1;1,0>:f    r4.12<0;1,0>:f   {Compacted,$3.dst} // $9
        store.ugm.d32.a64 (32|M0)  [r15:4]      r13:2              {A@1,$4} // ex_desc:0x0; desc:0x8000584 // $11
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT} // wr:1+0, rd:0; end of thread // $12


//.BankConflicts: 0
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 0
//.SIMD32ReadSuppressions: 0
//.SIMD16s: 37
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
