"""The Azure ML backend: submit, status, logs and cancel through azure-ai-ml (see `backend`).

`azure.ai.ml` is imported inside functions only, so importing this package stays cheap.
"""

from tui.backends.azureml.backend import AzureMLBackend
from tui.backends.azureml.listing import JobSummary

__all__ = ["AzureMLBackend", "JobSummary"]
