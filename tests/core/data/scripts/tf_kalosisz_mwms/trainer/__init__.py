# Source: https://github.com/kalosisz/tf-gcp-multi-worker-example/blob/e324d67b78172b93e08acc040bea12804beca485/multi-worker/trainer/__init__.py (copied unchanged below this line)
