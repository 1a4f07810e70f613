# Source: https://github.com/ultralytics/yolov5/blob/5081342f04fb287fc2e5f2b5a4e06752b7937b1c/utils/flask_rest_api/example_request.py (copied unchanged below this line)
# Ultralytics 🚀 AGPL-3.0 License - https://ultralytics.com/license
"""Perform test request."""

import pprint

import requests

DETECTION_URL = "http://localhost:5000/v1/object-detection/yolov5s"
IMAGE = "../../data/images/zidane.jpg"

# Read image
with open(IMAGE, "rb") as f:
    image_data = f.read()

# Send the filename so the server can validate the extension (restapi.py checks ALLOWED_EXTENSIONS)
response = requests.post(DETECTION_URL, files={"image": ("zidane.jpg", image_data, "image/jpeg")}).json()

pprint.pprint(response)
