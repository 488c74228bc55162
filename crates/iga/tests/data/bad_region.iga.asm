L0:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0:ud
