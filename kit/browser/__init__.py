"""The engine packed for the visitor's browser (Pyodide): the engine's wheel with the rules,
the standard library it needs as bytecode, and the xz-compressed files."""
