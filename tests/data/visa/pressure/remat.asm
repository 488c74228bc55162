//.kernel remat
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.options_string ""
//.instCount 7
//.RA type	GRAPH_COLORING_RA

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0) IsBuiltin
//.declare A (33)  rf=r size=32 type=d align=16 words (r1.0)
//.declare B (34)  rf=r size=32 type=d align=16 words (r2.0)
//.declare C (35)  rf=r size=32 type=d align=16 words (r1.0)
//.declare D (36)  rf=r size=32 type=d align=16 words (r3.0)
//.declare E (37)  rf=r size=32 type=d align=16 words (r4.0)

// B000: Preds:{},  Succs:{}
_main:
        mov (8|M0)               r1.0<1>:d     5:w                                   // $0
        add (8|M0)               r2.0<1>:d     r1.0<8;8,1>:d     1:w                 // $1
        mov (8|M0)               r1.0<1>:d     7:w                                   // $2
        add (8|M0)               r3.0<1>:d     r1.0<8;8,1>:d     r2.0<8;8,1>:d       // $3
        mov (8|M0)               r1.0<1>:d     5:w                                   // $0
        add (8|M0)               r4.0<1>:d     r1.0<8;8,1>:d     r3.0<8;8,1>:d       // $4
