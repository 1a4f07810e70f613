# Source: https://github.com/SCIR-HI/Huatuo-Llama-Med-Chinese/blob/ba9b3d65b33ba346e3d60979019abe6fa2ac741a/utils/__init__.py (copied unchanged below this line)
