"""Following growing logs without a UI: byte sources, line assembly, the adaptive follower."""
