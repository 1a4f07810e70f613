# Source: https://github.com/Ninjani/hackathon/blob/ae4a2955e209ada902849ba4c03318374d04aa82/source/dataloader/__init__.py (copied unchanged below this line)
