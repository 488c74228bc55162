//.kernel predicated
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.options_string ""
//.instCount 6
//.RA type	TRIVIAL_RA

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0) IsBuiltin
//.declare %null (10)  rf=r size=4 type=ud align=16 words
//.declare A (33)  rf=r size=32 type=d align=16 words (r1.0)
//.declare B (34)  rf=r size=32 type=d align=16 words (r1.0)
//.declare C (35)  rf=r size=32 type=d align=16 words (r2.0)
//.declare P1 (36)  rf=f8  size=2 type=uw align=1 words (f0.0)

// B000: Preds:{},  Succs:{}
_main:
        mov (8|M0)               r1.0<1>:d     1:w                                   // $1
        mov (8|M0)               r2.0<1>:d     2:w                                   // $2
        cmp (8|M0)    (lt)f0.0   null<1>:d     r1.0<8;8,1>:d     r2.0<8;8,1>:d       // $3
(f0.0)  sel (8|M0)               r1.0<1>:d     r1.0<8;8,1>:d     r2.0<8;8,1>:d       // $4
        add (8|M0)               r1.0<1>:d     r1.0<8;8,1>:d     1:w                 // $6
