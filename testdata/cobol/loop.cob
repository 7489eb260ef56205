      * Fixture for the cobol adapter: a loop with working-storage
      * items of the common kinds (DISPLAY numeric, COMP-3, alphanumeric),
      * a paragraph call, output on stdout.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. LOOP.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-TOTAL     PIC 9(5) VALUE 100.
       01 WS-I         PIC 9(3) VALUE 0.
       01 WS-SQUARE    PIC S9(5) COMP-3 VALUE 0.
       01 WS-NAME      PIC X(10) VALUE "COBOL".
       01 WS-REC.
          05 WS-COUNT  PIC S9(4) VALUE -7.
          05 WS-CODE   PIC X(3) VALUE "ABC".
       PROCEDURE DIVISION.
       MAIN-PARA.
           PERFORM VARYING WS-I FROM 0 BY 1 UNTIL WS-I > 4
               PERFORM SQUARE-PARA
               ADD WS-SQUARE TO WS-TOTAL
               DISPLAY WS-NAME " I=" WS-I " TOTAL=" WS-TOTAL
           END-PERFORM
           DISPLAY "DONE TOTAL=" WS-TOTAL
           STOP RUN.
       SQUARE-PARA.
           COMPUTE WS-SQUARE = WS-I * WS-I.
