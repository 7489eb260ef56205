      * Fixture for a COBOL runtime error: a CALL of a program that
      * does not exist, after one line of output.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CALLBAD.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-N         PIC 9(3) VALUE 42.
       PROCEDURE DIVISION.
       MAIN-PARA.
           DISPLAY "BEFORE " WS-N
           CALL "NOSUCHPROG"
           DISPLAY "AFTER"
           STOP RUN.
