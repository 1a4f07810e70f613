# Source: https://github.com/ultralytics/yolov5/blob/5081342f04fb287fc2e5f2b5a4e06752b7937b1c/utils/segment/__init__.py (copied unchanged below this line)
# Ultralytics 🚀 AGPL-3.0 License - https://ultralytics.com/license
