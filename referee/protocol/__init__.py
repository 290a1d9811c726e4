"""The wire protocol: generated code (bideuchre/v1) and the engine <-> wire conversion (convert)."""
