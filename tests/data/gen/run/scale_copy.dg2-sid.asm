//.kernel scale_copy
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string "-emitCrossThreadOffR0Reloc -hashmovs 2890857826 1794714342 -hashmovs1 0 1 "
//.full_options "-emitLocation -wideMulMadOpsEn -enableCoalesceScalarMoves -supportLSCImmScale 0 -enablePreemption -hasRNEandDenorm -noStitchExternFunc -useInlineData -emitCrossThreadOffR0Reloc -abortonspill -enableBundleCR 3 -freqBasedSpillCost 8 -freqBasedSpillCostFunc 1 -boundsChecking -presched-ctrl 22 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -PVCSendWARWA -output -binary -dumpcommonisa -dumpcombinedcisa -dumpvisa -printHexFloatInAsm -noverifyCISA -enableHalfLSC -hasNoInt64Add -waLscUgmFence -LSCFenceWA -activeThreadsOnlyBarrier -hashmovs 2890857826 1794714342 -hashmovs1 0 1 -GRFBumpUpNumber 2 "
//.instCount 45
//.RA type	LOCAL_ROUND_ROBIN_RA
//.git-hash 


// .inputs


// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                                                //  ALU pipe: int; 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       //  ALU pipe: int; 
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw                             //  ALU pipe: int; 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x20:ud              {I@2}          //  ALU pipe: int; 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x0:ud              {I@1}           //  R_SYM_ADDR_32: __INTEL_PATCH_CROSS_THREAD_OFFSET_OFF_R0; ALU pipe: int; 
(W)     mad (1|M0)               r127.2<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1} //  ALU pipe: int; 
(W)     mov (8|M0)               r7.0<1>:ud    r1.0<1;1,0>:ud                                        //  ALU pipe: int; 
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8 // 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x80:uw              {$0.src}       //  ALU pipe: int; 
(W)     send.dc0 (8|M0)          r5       r127    null:0  0x0            0x022843FD           {A@1,$1} // wr:1h+0, rd:2; oword aligned block read x4 // 
        nop                                                                                          // 
        nop                                                                                          // 
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                              {$1.src}          //  ALU pipe: int; 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       //  ALU pipe: int; 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x0:ud              {I@1}           //  R_SYM_ADDR_32: __INTEL_PATCH_CROSS_THREAD_OFFSET_OFF_R0; ALU pipe: int; 
(W)     send.dc0 (8|M0)          r8       r127    null:0  0x0            0x021842FD           {A@1,$2} // wr:1h+0, rd:1; oword aligned block read x2 // 
// B002: Preds:{B001},  Succs:{}
// _main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                   {$0.dst}             //  ALU pipe: int; $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {A@1}         // $1
(W)     mul (1|M0)               acc0.0<1>:d   r7.3<0;1,0>:d     r3.2<0;1,0>:uw   {A@1}              //  ALU pipe: int; $2
(W)     mach (1|M0)              r4.0<1>:d     r7.3<0;1,0>:d     r3.1<0;1,0>:d                       //  ALU pipe: int; $5
        sync.nop                             null                             {Compacted,$2.dst}     // $11
(W)     mov (1|M0)               a0.0<1>:ud    r8.5<0;1,0>:d                    {A@1}                //  ALU pipe: int; $11
        sync.nop                             null                             {Compacted,$1.dst}     // $5
        add3 (16|M0)             r5.0<1>:d     r4.0<0;0>:d       r1.0<1;0>:uw      r7.0<0>:d        {I@2} //  ALU pipe: int; $5
        add3 (16|M16)            r9.0<1>:d     r4.0<0;0>:d       r2.0<1;0>:uw      r7.0<0>:d         //  ALU pipe: int; $6
        shl (16|M0)              r5.0<1>:d     r5.0<1;1,0>:d     2:w               {Compacted,I@2}   //  ALU pipe: int; $7
        shl (16|M16)             r9.0<1>:d     r9.0<1;1,0>:d     2:w               {Compacted,I@2}   //  ALU pipe: int; $8
        add (16|M0)              r11.0<1>:d    r5.0<1;1,0>:d     r8.3<0;1,0>:d    {Compacted,I@2}    //  ALU pipe: int; $9
        add (16|M16)             r13.0<1>:d    r9.0<1;1,0>:d     r8.3<0;1,0>:d    {Compacted,I@2}    //  ALU pipe: int; $10
        load.ugm.d32.a32.ca.ca (16|M0)  r15:2   bss[a0.0][r11:2]   {ExBSO,A@2,$3} // ex_desc:a0.0; desc:0x24280500 // $11
        load.ugm.d32.a32.ca.ca (16|M16)  r17:2  bss[a0.0][r13:2]   {ExBSO,A@1,$4} // ex_desc:a0.0; desc:0x24280500 // $12
(W)     mov (1|M0)               a0.0<1>:ud    r8.6<0;1,0>:d                    {A@1}                //  ALU pipe: int; $17
        add (16|M0)              r5.0<1>:d     r5.0<1;1,0>:d     r8.4<0;1,0>:d    {Compacted}        //  ALU pipe: int; $15
        add (16|M16)             r9.0<1>:d     r9.0<1;1,0>:d     r8.4<0;1,0>:d    {Compacted}        //  ALU pipe: int; $16
(W)     mov (8|M0)               r127.0<1>:f   r3.0<1;1,0>:f                    {Compacted}          //  ALU pipe: float; $19
        mul (16|M0)              r19.0<1>:f    r15.0<1;1,0>:f    r8.2<0;1,0>:f    {Compacted,$3.dst} //  ALU pipe: float; $13
        mul (16|M16)             r21.0<1>:f    r17.0<1;1,0>:f    r8.2<0;1,0>:f    {Compacted,$4.dst} //  ALU pipe: float; $14
        store.ugm.d32.a32.wb.wb (16|M0)  bss[a0.0][r5:2] r19:2     {ExBSO,A@2,$5} // ex_desc:a0.0; desc:0x240E0504 // $17
        store.ugm.d32.a32.wb.wb (16|M16)  bss[a0.0][r9:2] r21:2    {ExBSO,A@1,$6} // ex_desc:a0.0; desc:0x240E0504 // $18
(W)     send.gtwy (1|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $19
L552:
        nop                                                                                          // $19
(W)     mov (16|M0)              null<1>:ud    0xAC4EFD62:ud                                         // 
(W)     mov (16|M0)              null<1>:ud    0x6AF92AE6:ud                                         // 
(W)     mov (16|M0)              null<1>:ud    0x0:ud                                                // 
(W)     mov (16|M0)              null<1>:ud    0x1:ud                                                // 


//.BankConflicts: 0
//.ByteRMWs: 0
//


//.numALUInst: 35
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
//
//
//.singlePipeAtOneDistNum: 6
//.allAtOneDistNum: 7
//.syncInstCount: 2
//.tokenReuseCount: 0
//.AfterWriteTokenDepCount: 5
//.AfterReadTokenDepCount: 2
