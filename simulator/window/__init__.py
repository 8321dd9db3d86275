"""The desktop window (app.py puts it together; its docstring names the parts)."""
