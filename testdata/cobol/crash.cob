      * Fixture for exception stops: a runtime error (a CALL of a
      * program that does not exist).
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CRASH.
       PROCEDURE DIVISION.
           DISPLAY "before"
           CALL "NOSUCHPROG"
           DISPLAY "after"
           STOP RUN.
