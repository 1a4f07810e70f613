# Source: https://github.com/jaryeonge/horovod_multiple_node/blob/2b87eab2f270c7f931bc38f828a0c2a6cd93b859/deep_learning/utils/dl_logger.py (copied unchanged below this line)
import logging


def default_logger():
    ''' This function returns the pre-defined logger '''
    logger = logging.getLogger(__name__)
    logger.propagate = False
    logger.setLevel('INFO')
    formatter = logging.Formatter('%(asctime)s: %(levelname)s >> %(message)s')
    stream_handler = logging.StreamHandler()
    stream_handler.setFormatter(formatter)
    if not logger.handlers:
        logger.addHandler(stream_handler)
    return logger
