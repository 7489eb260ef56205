      * Prints its first argument, DBG_E2E and its working directory
      * (the args/env/cwd conformance scenario).
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ECHO.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-ARG       PIC X(64) VALUE SPACES.
       01 WS-ENV       PIC X(64) VALUE SPACES.
       01 WS-CWD       PIC X(1024) VALUE SPACES.
       PROCEDURE DIVISION.
       MAIN-PARA.
           ACCEPT WS-ARG FROM ARGUMENT-VALUE
           ACCEPT WS-ENV FROM ENVIRONMENT "DBG_E2E"
           CALL "CBL_GET_CURRENT_DIR" USING BY VALUE 0 BY VALUE 1024
               BY REFERENCE WS-CWD
           DISPLAY FUNCTION TRIM(WS-ARG) " " FUNCTION TRIM(WS-ENV) " "
               FUNCTION TRIM(WS-CWD)
           STOP RUN.
