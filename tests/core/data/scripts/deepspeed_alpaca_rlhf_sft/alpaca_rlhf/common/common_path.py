# Source: https://github.com/l294265421/alpaca-rlhf/blob/862df3122bce3e4a4acd9d8dda6e6c94f806fbb4/alpaca_rlhf/common/common_path.py (copied unchanged below this line)
import os
import sys

project_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# project_dir = '/my-alpaca/MyDrive/my-alpaca'

templates_dir = os.path.join(project_dir, 'templates')

data_dir = os.path.join(project_dir, 'data/')

if __name__ == '__main__':
    print(project_dir)
