//.kernel copy
//.platform TGLLP
//.thread_config numGRF=128, numAcc=2, numSWSB=16
//.options_string ""
//.instCount 2
//.RA type	GRAPH_COLORING_RA

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0) IsBuiltin
//.declare A (33)  rf=r size=32 type=d align=16 words (r1.0)
//.declare B (34)  rf=r size=32 type=d align=16 words (r1.0)
//.declare C (35)  rf=r size=32 type=d align=16 words (r2.0)

// B000: Preds:{},  Succs:{}
_main:
        mov (8|M0)               r1.0<1>:d     5:w                                   // $0
        add (8|M0)               r2.0<1>:d     r1.0<8;8,1>:d     r1.0<8;8,1>:d       // $2
