# Source: https://github.com/s-JoL/Open-Llama/blob/0157b6938d547f64e257b55055b5aa3f6cfd3e7f/dataset/validation.py (copied unchanged below this line)
"""
Author: s-JoL(sl12160010@gmail.com)
Date: 2023-03-18 00:06:41
LastEditors: s-JoL(sl12160010@gmail.com)
LastEditTime: 2023-03-27 01:09:20
FilePath: /Open-Llama/dataset/validation.py
Description: 

Copyright (c) 2023 by s-JoL(sl12160010@gmail.com), All Rights Reserved. 
"""
val_set = [
    "白日依山尽，",
    "君不见，黄河之水天上来，奔流到海不复回。君不见，",
    "秦孝公据崤函之固，拥雍州之地，君臣固守以窥周室，有席卷天下，包举宇内，囊括四海之意，并吞八荒之心。",
    "古之学者必有师。师者，所以传道受业解惑也。人非生而知之者，孰能无惑？",
    "当我醒来时，我发现自己在一个完全陌生的地方。我看到周围没有人，只有一张纸条。",
    "这是一个斗气决定一切的大陆。在加玛帝国乌坦城，有个天才少年萧炎打破了所有族人的修炼纪录，一时间万人敬仰，众人艳羡。但不知为何，",
    "人工智能技术在图像识别领域取得了很大的进展，然而在复杂场景下仍然存在一些问题，例如",
    "In recent years, there has been increasing interest in the use of machine learning to",
    "已知三个数分别为1, 2, 3，则它们的平均数是",
    "小明总共有15个苹果，他分别给了3个人两个苹果，然后自己又吃了一个苹果，那么它还剩几个苹果？",
    "根据牛顿第二定律，物体的加速度等于",
    "碳纳米管是一种新型的材料，具有非常独特的电学和光学性质。在过去的几年中，我们对碳纳",
    "下面是一段用python写的快速排序的代码:",
    "The quantum many-body problem is a fundamental problem in condensed matter physics. Despite decades of research, there is still no exact solution to this problem for large systems. In this paper, we propose a novel approach based on",
    "下面是一个使用 PyTorch 和 Transformer 的示例代码，用于训练一个文本分类模型：import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, Dataset",
]
