      * Fixture for attach tests: prints "ready", then ticks until
      * killed.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. SPIN.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-TICK      PIC 9(9) VALUE 0.
       PROCEDURE DIVISION.
       MAIN-PARA.
           DISPLAY "ready"
           PERFORM UNTIL WS-TICK > 999999999
               ADD 1 TO WS-TICK
               DISPLAY "tick " WS-TICK
               CALL "usleep" USING BY VALUE 50000
           END-PERFORM
           STOP RUN.
