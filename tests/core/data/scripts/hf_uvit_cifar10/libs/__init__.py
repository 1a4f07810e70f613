# Source: https://github.com/baofff/U-ViT/blob/ce551708dc9cde9818d2af7d84dfadfeb7bd9034/libs/__init__.py (copied unchanged below this line)
# codes from third party
