"""Reading and checking rules/ (the YAML, its schemas, file:line:column messages) and the
project's settings in mkdocs.yml, for every build step and command."""
