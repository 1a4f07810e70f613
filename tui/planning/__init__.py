"""What composes a plan from the model and the frameworks: `plan()`, the command, its explanations,
the YAML / JSON / SDK exports and the import of a job file, presets, pre-flight and the script
check's entry point. It asks `tui.frameworks.registry` and never branches on a framework's name."""

# Any of planning loads the frameworks, and with them the rules each gives the model
# (`tui.core.framework_list.use_frameworks`): a spec validated on a planning path never lacks them.
from tui.frameworks import registry as _registry  # noqa: F401
