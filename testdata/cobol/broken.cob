      * Fixture: does not compile (the build-error test).
       IDENTIFICATION DIVISION.
       PROGRAM-ID. BROKEN.
       PROCEDURE DIVISION.
           MOVE 1 TO WS-UNDEFINED.
           STOP RUN.
