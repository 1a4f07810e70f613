# Source: https://github.com/z-a-f/clustered-unlearning/blob/f1016e32e62667ce0e98962dee42aaa8948a2e0c/main.py
#!/usr/bin/env python
from lightning.pytorch.cli import LightningCLI

def main():
    cli = LightningCLI(save_config_kwargs={'overwrite': True})

if __name__ == '__main__':
    main()