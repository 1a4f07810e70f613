# Source: https://github.com/TensorSpeech/TensorFlowTTS/blob/136877136355c82d7ba474ceb7a8f133bd84767e/tensorflow_tts/models/base_model.py (copied unchanged below this line)
# -*- coding: utf-8 -*-
# Copyright 2020 TensorFlowTTS Team.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""Base Model for all model."""

import tensorflow as tf
import yaml
import os
import numpy as np

from tensorflow_tts.utils.utils import MODEL_FILE_NAME, CONFIG_FILE_NAME


class BaseModel(tf.keras.Model):
    def set_config(self, config):
        self.config = config

    def save_pretrained(self, saved_path):
        """Save config and weights to file"""
        os.makedirs(saved_path, exist_ok=True)
        self.config.save_pretrained(saved_path)
        self.save_weights(os.path.join(saved_path, MODEL_FILE_NAME))
