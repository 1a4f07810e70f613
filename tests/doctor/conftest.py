"""The local backend fixtures (a job root per test, nothing left running) for the doctor's
real reproductions and the rank strip's live job."""

from tests.backends.conftest import backend, job_root  # noqa: F401
