stand-in: the job corpus needs this file to exist, not its content; the real one is in the repository and commit SOURCES gives for this folder (main.py, 3849 bytes)
