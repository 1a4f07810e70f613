"""One module per framework behind one interface (`base.Framework`), listed in `registry`."""
