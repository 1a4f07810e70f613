"""What composes a plan from the model and the frameworks: `plan()`, the command, its explanations,
the YAML / JSON / SDK exports and the import of a job file, presets, pre-flight and the script
check's entry point. It asks `tui.frameworks.registry` and never branches on a framework's name."""
