//.kernel saxpy
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.instCount 39
//.RA type	LOCAL_ROUND_ROBIN_RA

//.declare V0033 (43)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//.declare V0034 (44)  rf=r size=4 type=f align=2 words (r9.0)
//.declare V0035 (45)  rf=r size=4 type=d align=2 words (r9.1)
//.declare V0037 (47)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//.declare V0038 (48)  rf=r size=32 type=d align=16 words (r7.0)
//.declare V0039 (49)  rf=r size=12 type=d align=2 words (r8.0)
//.declare V0040 (50)  rf=r size=32 type=w align=16 words (r1.0)
//.declare V0041 (51)  rf=r size=32 type=w align=16 words (r2.0)
//.declare V0042 (52)  rf=r size=32 type=w align=16 words (r3.0)
//.declare V0043 (53)  rf=r size=32 type=w align=16 words (r4.0)
//.declare V0044 (54)  rf=r size=32 type=w align=16 words (r5.0)
//.declare V0045 (55)  rf=r size=32 type=w align=16 words (r6.0)
//.declare V0046 (56)  rf=r size=4 type=d align=2 words (r9.2)
//.declare V0047 (57)  rf=r size=4 type=d align=2 words (r9.3)
//.declare V0048 (58)  rf=r size=4 type=d align=16 words (r4.0)
//.declare V0049 (59)  rf=r size=64 type=d align=16 words (r5.0)
//.declare V0050 (60)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0051 (61)  rf=r size=32 type=uw alias=V0040+0 align=16 words (r1.0)
//.declare V0052 (62)  rf=r size=32 type=uw alias=V0041+0 align=16 words (r2.0)
//.declare V0053 (63)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0054 (64)  rf=r size=64 type=d align=16 words (r14.0)
//.declare V0055 (66)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0056 (67)  rf=r size=64 type=d align=16 words (r18.0)
//.declare V0057 (68)  rf=r size=64 type=d align=16 words (r20.0)
//.declare V0058 (69)  rf=r size=64 type=d align=16 words (r22.0)
//.declare V0059 (70)  rf=r size=64 type=ud alias=V0057+0 align=16 words (r20.0)
//.declare V0060 (71)  rf=r size=64 type=ud alias=V0058+0 align=16 words (r22.0)
//.declare V0061 (72)  rf=r size=64 type=f align=16 words (r25.0)
//.declare V0062 (73)  rf=r size=64 type=f align=16 words (r27.0)
//.declare V0063 (74)  rf=r size=64 type=ud alias=V0055+0 align=16 words (r16.0)
//.declare V0064 (75)  rf=r size=64 type=ud alias=V0056+0 align=16 words (r18.0)
//.declare V0065 (76)  rf=r size=64 type=f align=16 words (r29.0)
//.declare V0066 (77)  rf=r size=64 type=f align=16 words (r31.0)
//.declare V0067 (78)  rf=r size=8 type=uq align=4 words (r8.2)
//.declare V0068 (79)  rf=r size=8 type=uq align=4 words (r8.3)

// .inputs
// +----------+----------+--------+----------+------------------+
// | id       | type     |  bytes | at       | from             |
// +----------+----------+--------+----------+------------------+
// | V0040    | :w x 16  |   0x20 | r1       | cti+0x0          |
// | V0041    | :w x 16  |   0x20 | r2       | cti+0x20         |
// | V0042    | :w x 16  |   0x20 | r3       | cti+0x40         |
// | V0043    | :w x 16  |   0x20 | r4       | cti+0x60         |
// | V0044    | :w x 16  |   0x20 | r5       | cti+0x80         |
// | V0045    | :w x 16  |   0x20 | r6       | cti+0xA0         |
// | V0038    | :d x 8   |   0x20 | r7       | cti+0xC0         |
// | V0039    | :d x 3   |    0xC | r8       | cti+0xE0         |
// | V0067    | :uq      |    0x8 | r8+0x10  | cti+0xF0         |
// | V0068    | :uq      |    0x8 | r8+0x18  | cti+0xF8         |
// | V0034    | :f       |    0x4 | r9       | cti+0x100        |
// | V0035    | :d       |    0x4 | r9+0x4   | cti+0x104        |
// | V0046    | :d       |    0x4 | r9+0x8   | cti+0x108        |
// | V0047    | :d       |    0x4 | r9+0xC   | cti+0x10C        |
// +----------+----------+--------+----------+------------------+


// B000: Preds:{},  Succs:{B001, B002}
_main:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {@1}          // $1

// File: k.cl

// Line 3:  int i = get_global_id(0);
(W)     mul (1|M0)               acc0.0<1>:d   r8.0<0;1,0>:d     r3.2<0;1,0>:uw   {Compacted,@1}     // $4
(W)     mach (1|M0)              r4.0<1>:d     r8.0<0;1,0>:d     r3.1<0;1,0>:d    {Compacted}        // $7
        add (16|M0)              r5.0<1>:d     r4.0<0;1,0>:d     r1.0<16;16,1>:uw {@1}               // $7
        add (16|M16)             r10.0<1>:d    r4.0<0;1,0>:d     r2.0<16;16,1>:uw                    // $8
        add (16|M0)              r12.0<1>:d    r5.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted,@2}     // $9
        add (16|M16)             r14.0<1>:d    r10.0<8;8,1>:d    r7.0<0;1,0>:d    {Compacted,@2}     // $10

// Line 4:  if (i < n) {
        cmp (16|M0)   (lt)f0.0   null<1>:d     r12.0<8;8,1>:d    r9.1<0;1,0>:d    {@2}               // $13
        cmp (16|M16)  (lt)f0.0   null<1>:d     r14.0<8;8,1>:d    r9.1<0;1,0>:d    {@2}               // $14
(W)     csel (4|M0)   (eq)f0.0   r1.0<1>:w     r1.0<4;1>:w       r1.0<4;1>:w       r1.0<1>:w         // $15
(f0.0)  if (32|M0)                           _saxpy_k0_0_cf    _saxpy_k0_0_cf                        // $15
// B001: [inDivergent],  Preds:{B000},  Succs:{B002}
_0_005:

// Line 5:  float v = x[i];
        shl (16|M0)              r16.0<1>:d    r12.0<8;8,1>:d    2:w               {Compacted}       // $18
        shl (16|M16)             r18.0<1>:d    r14.0<8;8,1>:d    2:w               {Compacted}       // $19
        add (16|M0)              r20.0<1>:d    r16.0<8;8,1>:d    r9.3<0;1,0>:d    {Compacted,@2}     // $20
        add (16|M16)             r22.0<1>:d    r18.0<8;8,1>:d    r9.3<0;1,0>:d    {Compacted,@2}     // $21

// Line 6:  y[i] = a * v + y[i];
        add (16|M0)              r16.0<1>:d    r16.0<8;8,1>:d    r9.2<0;1,0>:d    {Compacted}        // $28
        add (16|M16)             r18.0<1>:d    r18.0<8;8,1>:d    r9.2<0;1,0>:d    {Compacted}        // $29

// Line 5:  float v = x[i];
        send.dc1 (16|M0)         r25      r20     null    0x0            0x04205E01           {@4,$0} // wr:2+0, rd:2; untyped surface read with x // $23
        send.dc1 (16|M16)        r27      r22     null    0x0            0x04205E01           {@3,$1} // wr:2+0, rd:2; untyped surface read with x // $25

// Line 6:  y[i] = a * v + y[i];
        send.dc1 (16|M0)         r29      r16     null    0x0            0x04205E00           {@2,$2} // wr:2+0, rd:2; untyped surface read with x // $31
        send.dc1 (16|M16)        r31      r18     null    0x0            0x04205E00           {@1,$3} // wr:2+0, rd:2; untyped surface read with x // $33
        sync.nop                             null                             {Compacted,$2.dst}     // $34
        mad (16|M0)              r29.0<1>:f    r29.0<8;1>:f      r25.0<8;1>:f      r9.0<0>:f        {Compacted,$0.dst} // $34 R{} IR{}{O:6,O:4,O:4,},  R{r9,} IR{}{E:7,E:5,},  {BC=1}
        sync.nop                             null                             {Compacted,$3.dst}     // $35
        mad (16|M16)             r31.0<1>:f    r31.0<8;1>:f      r27.0<8;1>:f      r9.0<0>:f        {Compacted,$1.dst} // $35 R{} IR{}{O:7,O:5,O:4,},  R{r9,} IR{}{E:0,E:6,},  {BC=1}
        send.dc1 (16|M0)         null     r16     r29     0x80            0x04025E00           {@2,$4} // wr:2+2, rd:0; untyped surface write with x // $37
        send.dc1 (16|M16)        null     r18     r31     0x80            0x04025E00           {@1,$5} // wr:2+2, rd:0; untyped surface write with x // $39
// B002: Preds:{B001, B000},  Succs:{B003}
_saxpy_k0_0_cf:

// Line 4:  if (i < n) {
        endif (32|M0)                        _0_004                                                  // $15
// B003: Preds:{B002},  Succs:{}
_0_004:

// Line 8:  }
(W)     mov (8|M0)               r127.0<1>:f   r3.0<8;8,1>:f                    {Compacted}          // $43
(W)     send.dc0 (8|M0)          r24      r3      null    0x0            0x0219E000           {$6} // wr:1h+0, rd:1; synchronized global fence flushing // $43
(W)     mov (8|M0)               null<1>:ud    r24.0<8;8,1>:ud                  {$6.dst}             //  memory fence commit; ; $43
(W)     mov (16|M0)              acc0.0<1>:f   0x0:f                                                 // $43
(W)     send.ts (1|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // wr:1+0, rd:0; end of thread // $43
L424:
        nop                                                                                          // $43
(W)     mov (16|M0)              null<1>:ud    0xFC56E5B5:ud                                         // 
(W)     mov (16|M0)              null<1>:ud    0x1E5B3FD0:ud                                         // 
(W)     mov (16|M0)              null<1>:ud    0x0:ud                                                // 
(W)     mov (16|M0)              null<1>:ud    0x1:ud                                                // 


//


//
//
