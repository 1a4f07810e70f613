# Source: https://github.com/athena-team/athena/blob/0be22c155c782207349ad6b2135f974d8673611f/athena/models/vad/__init__.py (copied unchanged below this line)
