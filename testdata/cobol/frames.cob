      * Fixture for the cobol adapter: a program that calls a nested
      * program, so that the stack has two frames of COBOL code.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. FRAMES.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-I         PIC 9(3) VALUE 0.
       01 WS-OUT       PIC 9(5) VALUE 0.
       PROCEDURE DIVISION.
           MOVE 2 TO WS-I
           CALL "SCALE" USING WS-I WS-OUT
           DISPLAY "SCALED=" WS-OUT " I=" WS-I
           STOP RUN.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. SCALE.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-F         PIC 9(3) VALUE 3.
       LINKAGE SECTION.
       01 LK-X         PIC 9(3).
       01 LK-Y         PIC 9(5).
       PROCEDURE DIVISION USING LK-X LK-Y.
           COMPUTE LK-Y = LK-X * WS-F
           GOBACK.
       END PROGRAM SCALE.
       END PROGRAM FRAMES.
